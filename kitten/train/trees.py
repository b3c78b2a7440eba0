"""scikit-learn trees to the portable JSON format of ``kitten/tables/model.py``, and
cross-validation reports."""
from __future__ import annotations


def _share(x: float) -> float | int:
    """A class share as JSON writes it shortest: 0 and 1 as integers (most leaves of a
    fully grown tree are pure: ``[0,1,0,0,0,0]`` parses faster than its floats)."""
    return int(x) if x in (0.0, 1.0) else x


def tree_dict(estimator) -> dict:
    """One fitted ``DecisionTreeClassifier`` as plain lists (class shares at each leaf;
    an empty list at the inner nodes, which prediction never reads): the earlier file
    format, which :func:`compact` turns into the shipped one."""
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


def compact(model: dict) -> dict:
    """A model document whose trees hold a ``"value"`` list per node (:func:`tree_dict`)
    in the file format of ``kitten/tables/model.py``: each distinct vector of class shares
    once in ``"shares"`` (in the order of first use, tree by tree, node by node), each
    tree's ``"leaves"`` the indexes of its leaves' vectors (leaves in node order). The
    same numbers; the same document for the same trees. A stacked model's stages each."""
    if model.get("kind") == "stacked":
        return {**model, "stage1": compact(model["stage1"]), "stage2": compact(model["stage2"])}
    index: dict[tuple, int] = {}
    shares: list[list] = []
    trees = []
    for t in model["trees"]:
        leaves = []
        for v, left in zip(t["value"], t["left"]):
            if left != -1:
                continue
            key = tuple(v)
            if key not in index:
                index[key] = len(shares)
                shares.append(list(v))
            leaves.append(index[key])
        trees.append({k: t[k] for k in ("left", "right", "feature", "threshold")} | {"leaves": leaves})
    head = {k: model[k] for k in ("kind", "features", "classes") if k in model}
    rest = {k: v for k, v in model.items() if k not in head and k != "trees"}
    return {**head, "shares": shares, "trees": trees, **rest}


def model_dict(estimator, features: tuple[str, ...], **info) -> dict:
    """A fitted tree or random forest as the JSON document ``kitten`` loads
    (``kitten/tables/model.py``)."""
    trees = getattr(estimator, "estimators_", None)
    kind = "forest" if trees is not None else "tree"
    trees = trees if trees is not None else [estimator]
    return compact({"kind": kind, "features": list(features), "classes": [str(c) for c in estimator.classes_],
                    "trees": [tree_dict(t) for t in trees], **info})


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
