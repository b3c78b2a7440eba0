"""Cell typing: the cell model (one stage, or two stacked stages) applied to a table."""
from __future__ import annotations

from kitten.tables.features import BIG_TABLE, CELL_FEATURES, TableView, cell_columns, cell_features, context_features
from kitten.tables.model import Model, Stacked


def type_cells(v: TableView, breaks: dict, model: Model | Stacked) -> None:
    """Set ``Cell.type`` of every cell of ``v.grid``: a big table's from its features
    given feature by feature (``cell_columns``) to the forest in C, the same types."""
    cells = v.grid.cells
    if isinstance(model, Model) and model.packed is not None and len(cells) >= BIG_TABLE:
        for cell, label in zip(cells, model.label_columns(len(cells), cell_columns(v, breaks))):
            cell.type = label
        return
    base = cell_features(v, breaks)
    if isinstance(model, Stacked):
        stage1 = model.stage1
        probs = stage1.proba_many(base)
        context = context_features(v, probs, stage1.classes)
        k = len(stage1.features)  # a model of fewer features than the code's reads the first ones
        if k < len(CELL_FEATURES):
            base = [x[:k] for x in base]
        for x, cx in zip(base, context):  # the second stage's vectors: the first's, extended
            x.extend(cx)
        model = model.stage2
    for cell, (label, _) in zip(v.grid.cells, model.predict_many(base)):
        cell.type = label
