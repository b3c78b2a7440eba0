"""``kitten train tables``: the data/layout tree and the cell-type tree from corpora/tables/.

Deterministic: pages are read in sorted order, every estimator and every fold split has a
fixed seed. Prints 10-fold cross validation (per-class precision, recall, F1, next to the
original system's figures) for a single decision tree, a random forest and, for cells, a
stacked forest (a second forest that also sees the first one's probabilities for the
cell's row and column neighbours); for tables also stricter splits where no page, and
where no site, has tables in two folds (sites: ``corpora/boilerplate/sites.tsv``; each
Wikipedia page is a site of its own, an article written apart from the others), with the
figures on the tables of pages other than Wikipedia's; for cells folds by site, and the
header/data confusion. Ships the chosen model as JSON in ``classifiers/`` (``tables.json``,
``cells.json``): by default (``--model forest``) one random forest each. The stacked
forest scores higher under cross validation (finalNonImportant above all) but reads
fewer facts of the Wikipedia tables (``benchmarks/table_facts.py``); ``--model auto``
picks it when its mean F1 is higher.
"""
from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from pathlib import Path

from kitten.progress import Steps
from kitten.train.sites import read_sites
from kitten.train.table_corpus import CELL_TYPES, labelled_tables, read_jsonl
from kitten.tables.features import (CELL_FEATURES, CONTEXT_FEATURES, TABLE_FEATURES, cell_features,
                                   context_features, table_features, view)
from kitten.tables.heuristics import fix_types
from kitten.train.trees import model_dict, report

ORIGINAL_TABLES = {"data": 0.951, "layout": 0.947}
ORIGINAL_CELLS = {"header": 0.971, "data": 0.996, "neutral": 0.971, "thema": 0.871,
                  "finalImportant": 0.806, "finalNonImportant": 0.941}
SEED = 0
FOLDS = 10
#: trees per forest: for tables 30 score as well as 60 under cross validation at half the
#: run time; for cells 60 are better (header F1 0.972 against 0.965); 100 with the class
#: weights below scored no better (macro F1 0.887 against 0.897 by page: the variance of
#: one forest against another is about 0.01).
#: Extremely randomized trees (ExtraTreesClassifier) were tried for both models, four
#: seeds each, cross validation by page: tables data F1 on 1,737 tables (after batch N)
#: 0.949-0.957 (mean 0.954) against the random forest's 0.942-0.946, but on the 2,849 of
#: batches O and P 0.953-0.970 (mean 0.962) against 0.966-0.970 (mean 0.968; 100 random
#: trees 0.969); cells (1,737 tables) macro F1 0.907-0.913 against 0.898-0.904, for twice
#: the nodes (a 4.7 MB model loading in 0.3 s at each process start) and 13% more time
#: per cell. Random forests kept.
FOREST_TREES = {"tables": 30, "cells": 60}
#: class weights of the forests. Cells: "balanced_subsample" (each tree weighs every class
#: inversely to its frequency in the tree's bootstrap sample, deterministic like the rest):
#: the rare types (finalNonImportant 140 cells, finalImportant 46, thema 91 of 15,409) are
#: otherwise split off late, after features that fit the data cells, and a table whose
#: repeated header rows are written in td (a catalogue) read as data. Under cross
#: validation by page, heuristics off (with the features of issue 22's second round):
#: macro F1 0.876 -> 0.897 (finalNonImportant 0.850 -> 0.957, header 0.882 -> 0.890,
#: neutral 0.801 -> 0.793). Tables: none (unweighted).
CLASS_WEIGHT = {"tables": None, "cells": "balanced_subsample"}
#: cell features computed (kitten/tables/features.py) but left out of the cell model: the
#: three header-typing features (the identifying column in td, a top row of words over
#: numbers, a row more emphasized than the rows below) gained 0.003 of macro F1 under
#: cross validation by page on the 741 tables before the web2025 and modern labels, and
#: nothing on the 1,014 after them, folds by site, forest, two seeds: header F1 0.915 /
#: 0.912 without, 0.914 / 0.911 with; macro 0.875 / 0.813 without, 0.803 / 0.809 with
#: (finalNonImportant, 196 cells in a few tables, swings 0.30-0.62 from seed to seed). A
#: model reads the first features of a vector, so these stay last and a model trained
#: without them runs on the longer vectors.
UNUSED_CELL_FEATURES = ("key_col", "top_words", "emph_vs_below")
TRAINED_CELL_FEATURES = CELL_FEATURES[:len(CELL_FEATURES) - len(UNUSED_CELL_FEATURES)]
assert CELL_FEATURES[len(TRAINED_CELL_FEATURES):] == UNUSED_CELL_FEATURES


@dataclass
class Sets:
    tables_x: list
    tables_y: list
    tables_page: list
    cells_x: list
    cells_y: list
    cells_table: list  # index of the cell's table (for the heuristics)
    cells_page: list  # the cell's page (folds by page: no page's tables on both sides)
    cell_views: list  # (view, cells in order) per cell-labelled table
    stale: list


def load(corpora: Path, labels: Path) -> Sets:
    tables = read_jsonl(labels / "tables.jsonl")
    cells = {(r["page"], r["locator"]): r for r in read_jsonl(labels / "cells.jsonl")}
    stale: list = []
    s = Sets([], [], [], [], [], [], [], [], stale)
    records = tables + [r for k, r in cells.items() if k not in {(t["page"], t["locator"]) for t in tables}]
    for rec, t in labelled_tables(corpora, records, stale=stale):
        v = view(t.grid)
        key = (rec["page"], rec["locator"])
        if "label" in rec:
            s.tables_x.append(table_features(v, t.blocks.embedded))
            s.tables_y.append(rec["label"])
            s.tables_page.append(rec["page"])
        c = cells.get(key)
        if c is not None:
            if c["fingerprint"] != t.fingerprint:
                stale.append(c)
                continue
            types = {(r, col): ty for r, col, ty in c["cells"]}
            feats = [f[:len(TRAINED_CELL_FEATURES)] for f in cell_features(v, t.blocks.cell_breaks)]
            k = len(s.cell_views)
            s.cell_views.append(v)
            for cell, x in zip(t.grid.cells, feats):
                s.cells_x.append(x)
                s.cells_y.append(types[(cell.row, cell.col)])
                s.cells_table.append(k)
                s.cells_page.append(c["page"])
    return s


def _estimators(what: str):
    from sklearn.ensemble import RandomForestClassifier
    from sklearn.tree import DecisionTreeClassifier

    return {
        "tree": lambda: DecisionTreeClassifier(random_state=SEED, min_samples_leaf=2),
        "forest": lambda: RandomForestClassifier(n_estimators=FOREST_TREES[what], random_state=SEED,
                                                 min_samples_leaf=1, n_jobs=1,
                                                 class_weight=CLASS_WEIGHT[what]),
    }


def _cv_predict(make, x, y, folds) -> list:
    import numpy as np

    x, y = np.asarray(x, dtype=float), np.asarray(y)
    pred = np.empty(len(y), dtype=object)
    for train, test in folds:
        est = make().fit(x[train], y[train])
        pred[test] = est.predict(x[test])
    return list(pred)


def sites(pages: list[str]) -> list[str]:
    """The site of each page (``corpora/boilerplate/sites.tsv``; else the page itself)."""
    known = read_sites()
    return [known.get(p, p) for p in pages]


def _not_wikipedia(pages: list[str]) -> list[int]:
    return [i for i, p in enumerate(pages) if not p.startswith("wikipedia")]


def header_data_confusion(y_true: list, y_pred: list) -> str:
    """How many header cells came out data and data cells header."""
    hd = sum(1 for t, p in zip(y_true, y_pred) if t == "header" and p == "data")
    dh = sum(1 for t, p in zip(y_true, y_pred) if t == "data" and p == "header")
    return f"  header -> data {hd}, data -> header {dh}"


def cross_validate(s: Sets, out=sys.stdout) -> dict:
    from sklearn.model_selection import GroupKFold, StratifiedKFold

    results: dict = {"tables": {}, "cells": {}}
    n_data = sum(1 for y in s.tables_y if y == "data")
    out.write(f"Tables: {len(s.tables_y)} leaf tables ({n_data} data, {len(s.tables_y) - n_data} layout) "
              f"from {len(set(s.tables_page))} pages; stale labels: {len(s.stale)}\n")
    strat = list(StratifiedKFold(FOLDS, shuffle=True, random_state=SEED).split(s.tables_x, s.tables_y))
    grouped = list(GroupKFold(FOLDS).split(s.tables_x, s.tables_y, s.tables_page))
    by_site = list(GroupKFold(FOLDS).split(s.tables_x, s.tables_y, sites(s.tables_page)))
    web = _not_wikipedia(s.tables_page)
    for name, make in _estimators("tables").items():
        for split, folds in (("10-fold", strat), ("10-fold by page", grouped), ("10-fold by site", by_site)):
            pred = _cv_predict(make, s.tables_x, s.tables_y, folds)
            text, scores = report(s.tables_y, pred, ("data", "layout"), ORIGINAL_TABLES)
            out.write(f"\n[tables] {name}, {split} cross validation\n{text}\n")
            results["tables"][f"{name} {split}"] = scores
            if split == "10-fold by site" and web:
                text, scores = report([s.tables_y[i] for i in web], [pred[i] for i in web], ("data", "layout"))
                out.write(f"[tables] {name}, {split}: the {len(web)} tables of pages other than Wikipedia's\n"
                          f"{text}\n")
                results["tables"][f"{name} {split}, not Wikipedia"] = scores
    if not s.cells_y:
        return results
    out.write(f"\nCells: {len(s.cells_y)} cells of {len(s.cell_views)} data tables\n")
    folds = list(GroupKFold(FOLDS).split(s.cells_x, s.cells_y, sites(s.cells_page)))
    for name, make in _estimators("cells").items():
        pred = _cv_predict(make, s.cells_x, s.cells_y, folds)
        text, scores = report(s.cells_y, pred, CELL_TYPES, ORIGINAL_CELLS)
        out.write(f"\n[cells] {name}, 10-fold cross validation (folds by site)\n{text}\n"
                  f"{header_data_confusion(s.cells_y, pred)}\n")
        results["cells"][name] = scores
        fixed = _with_heuristics(s, pred)
        text, scores = report(s.cells_y, fixed, CELL_TYPES, ORIGINAL_CELLS)
        out.write(f"\n[cells] {name} + heuristics, 10-fold cross validation (folds by site)\n{text}\n"
                  f"{header_data_confusion(s.cells_y, fixed)}\n")
        results["cells"][f"{name} + heuristics"] = scores
    make = _estimators("cells")["forest"]
    pred = [None] * len(s.cells_y)
    for train_idx, test_idx in folds:
        stage1, stage2 = _fit_stacked(s, train_idx, make)
        for i, p in zip(test_idx, _predict_stacked(s, test_idx, stage1, stage2)):
            pred[i] = p
    for label, p in (("stacked", pred), ("stacked + heuristics", _with_heuristics(s, pred))):
        text, scores = report(s.cells_y, p, CELL_TYPES, ORIGINAL_CELLS)
        out.write(f"\n[cells] {label} forest, 10-fold cross validation (folds by site)\n{text}\n"
                  f"{header_data_confusion(s.cells_y, p)}\n")
        results["cells"][label] = scores
    return results


def _proba(est, x) -> list[list[float]]:
    """Class probabilities in the order of CELL_TYPES (classes absent from training: 0)."""
    pp = est.predict_proba(x)
    out = [[0.0] * len(CELL_TYPES) for _ in range(len(x))]
    for j, label in enumerate(est.classes_):
        k = CELL_TYPES.index(label)
        for i in range(len(x)):
            out[i][k] = float(pp[i][j])
    return out


def _context(s: Sets, idx, probs) -> list[list[float]]:
    """Second-stage context features of the cells ``idx`` (grouped by table)."""
    by_table: dict[int, list[int]] = {}
    for j, i in enumerate(idx):
        by_table.setdefault(s.cells_table[i], []).append(j)
    out: list[list[float]] = [[] for _ in idx]
    for k, js in by_table.items():
        v = s.cell_views[k]
        ctx = context_features(v, [probs[j] for j in js], CELL_TYPES)
        for j, cx in zip(js, ctx):
            out[j] = cx
    return out


def _fit_stacked(s: Sets, idx, make):
    """(stage 1 fitted on idx, stage 2 fitted on idx with out-of-fold stage-1 context)."""
    import numpy as np
    from sklearn.model_selection import GroupKFold

    x = np.asarray(s.cells_x, dtype=float)
    y = np.asarray(s.cells_y)
    groups = np.asarray(s.cells_table)
    idx = np.asarray(idx)
    oof: list = [None] * len(idx)
    for a, b in GroupKFold(5).split(x[idx], y[idx], groups[idx]):
        est = make().fit(x[idx[a]], y[idx[a]])
        for j, p in zip(b, _proba(est, x[idx[b]])):
            oof[j] = p
    stage1 = make().fit(x[idx], y[idx])
    x2 = np.hstack([x[idx], np.asarray(_context(s, idx, oof))])
    stage2 = make().fit(x2, y[idx])
    return stage1, stage2


def _predict_stacked(s: Sets, idx, stage1, stage2) -> list:
    import numpy as np

    x = np.asarray(s.cells_x, dtype=float)[np.asarray(idx)]
    x2 = np.hstack([x, np.asarray(_context(s, idx, _proba(stage1, x)))])
    return list(stage2.predict(x2))


def _with_heuristics(s: Sets, pred: list) -> list:
    """Apply the heuristics of kitten/tables/heuristics.py to cross-validated predictions."""
    out = list(pred)
    start = 0
    for k, v in enumerate(s.cell_views):
        n = len(v.grid.cells)
        for cell, p in zip(v.grid.cells, pred[start:start + n]):
            cell.type = p
        fix_types(v)
        out[start:start + n] = [c.type for c in v.grid.cells]
        start += n
    return out


def train(corpora: Path, labels: Path, out_dir: Path, model: str = "forest", out=sys.stdout) -> int:
    import numpy as np

    steps = Steps("kitten train tables")
    with steps.step(f"reading the labelled tables of {labels} in {corpora} (grids, features)"):
        s = load(corpora, labels)
    if not s.tables_y:
        out.write(f"no labelled tables found (labels in {labels}, pages under {corpora})\n")
        return 2
    with steps.step(f"{FOLDS}-fold cross validation of each model (tables, then cells)"):
        results = cross_validate(s, out)
    out_dir.mkdir(parents=True, exist_ok=True)
    for what, x, y, features, key in (("tables", s.tables_x, s.tables_y, TABLE_FEATURES, "tables"),
                                      ("cells", s.cells_x, s.cells_y, TRAINED_CELL_FEATURES, "cells")):
        if not y:
            continue
        makers = _estimators(what)
        choice = model if model != "auto" else _best(results[key])
        info = {"trained_on": {"examples": len(y), "labels": str(labels)},
                "cross_validation": results[key], "chosen": choice}
        with steps.step(f"fitting the {what} model on {len(y)} examples"):
            if what == "cells" and model == "auto" and _mean_f1(results[key], "stacked") > _mean_f1(results[key], choice):
                choice = info["chosen"] = "stacked"
                stage1, stage2 = _fit_stacked(s, list(range(len(y))), makers["forest"])
                doc = {"kind": "stacked", "stage1": model_dict(stage1, features),
                       "stage2": model_dict(stage2, features + CONTEXT_FEATURES), **info}
            else:
                est = makers[choice]().fit(np.asarray(x, dtype=float), np.asarray(y))
                doc = model_dict(est, features, **info)
        path = out_dir / f"{what}.json"
        path.write_text(json.dumps(doc, separators=(",", ":")) + "\n", encoding="utf-8")
        out.write(f"\nwrote {path} ({choice})\n")
    return 0


def _mean_f1(results: dict, key: str) -> float:
    scores = results.get(key) or results.get(f"{key} 10-fold") or {}
    return sum(v["f1"] for v in scores.values()) / (len(scores) or 1)


def _best(results: dict) -> str:
    """The forest only when it is clearly better (mean F1 over classes +0.01) than one tree."""
    return "forest" if _mean_f1(results, "forest") > _mean_f1(results, "tree") + 0.01 else "tree"
