"""scikit-learn trees to the portable JSON format of ``kitten/tables/model.py``, and
cross-validation reports."""
from __future__ import annotations


def _share(x: float) -> float | int:
    """A class share as JSON writes it shortest: 0 and 1 as integers (most leaves of a
    fully grown tree are pure: ``[0,1,0,0,0,0]`` parses faster than its floats)."""
    return int(x) if x in (0.0, 1.0) else x


def tree_dict(estimator) -> dict:
    """One fitted ``DecisionTreeClassifier`` as plain lists (class shares at each leaf;
    an empty list at the inner nodes, which prediction never reads)."""
    t = estimator.tree_
    values = []
    for v, left in zip(t.value[:, 0, :], t.children_left):
        s = float(v.sum())
        values.append([_share(round(float(x) / s, 6)) if s else 0 for x in v] if left == -1 else [])
    return {
        "left": [int(x) for x in t.children_left],
        "right": [int(x) for x in t.children_right],
        "feature": [int(x) if x >= 0 else 0 for x in t.feature],
        "threshold": [float(x) for x in t.threshold],
        "value": values,
    }


def model_dict(estimator, features: tuple[str, ...], **info) -> dict:
    """A fitted tree or random forest as the JSON document ``kitten`` loads."""
    trees = getattr(estimator, "estimators_", None)
    kind = "forest" if trees is not None else "tree"
    trees = trees if trees is not None else [estimator]
    return {"kind": kind, "features": list(features), "classes": [str(c) for c in estimator.classes_],
            "trees": [tree_dict(t) for t in trees], **info}


def report(y_true, y_pred, labels, reference: dict[str, float] | None = None) -> tuple[str, dict]:
    """Per-class precision, recall, F1 and support (with the original's F1 beside them)."""
    from sklearn.metrics import precision_recall_fscore_support

    p, r, f, s = precision_recall_fscore_support(y_true, y_pred, labels=list(labels), zero_division=0)
    lines = [f"  {'class':<18} {'P':>6} {'R':>6} {'F1':>6} {'n':>6}  original F1"]
    scores = {}
    for i, label in enumerate(labels):
        ref = (reference or {}).get(label)
        lines.append(f"  {label:<18} {p[i]:6.3f} {r[i]:6.3f} {f[i]:6.3f} {int(s[i]):6d}  "
                     f"{'' if ref is None else f'{ref:.3f}'}")
        scores[label] = {"precision": round(float(p[i]), 4), "recall": round(float(r[i]), 4),
                         "f1": round(float(f[i]), 4), "support": int(s[i])}
    return "\n".join(lines), scores
