import json, sys
from pathlib import Path
from kitten.tables.corpus import labelled_tables, read_jsonl, write_jsonl
apply = len(sys.argv) > 1
path = Path('corpora/tables/cells.jsonl')
recs = read_jsonl(path)
changed = 0; tables = 0
for r, t in labelled_tables(Path('.cache/corpora'), recs):
    types = {(a, b): ty for a, b, ty in r['cells']}
    g = t.grid
    # header rows: rows whose own cells are all header/neutral/thema
    n = 0
    for c in g.cells:
        if c.col != 0 or c.colspan != 1 or c.tag == 'th' or types[(c.row, c.col)] != 'header' or not c.text:
            continue
        # the cell above it in column 0 that is a header with text, in a header row
        above = None
        for rr in range(c.row - 1, -1, -1):
            if any(types[(x.row, x.col)] == 'data' for x in g.row_cells(rr)):
                continue  # a record row (or a label/value row such as Majority / Turnout)
            x = g.slots[rr][0]
            if x is not None and x is not c:
                above = x
            break
        if above is None or not above.text or types.get((above.row, above.col)) != 'header':
            continue
        # only when this row also holds data cells (a record row, not a header row)
        row_types = [types[(x.row, x.col)] for x in g.row_cells(c.row) if x is not c]
        if 'data' not in row_types:
            continue
        types[(c.row, c.col)] = 'data'; n += 1
    if n:
        tables += 1; changed += n
        print(r['page'], r['locator'][:60], n, r['reviewer'])
        r['cells'] = [[a, b, types[(a, b)]] for a, b, _ in r['cells']]
        r['note'] = (r.get('note', '') + f' [convention pass: {n} first-column cells h->d]').strip()
print(changed, 'cells in', tables, 'tables')
if apply:
    write_jsonl(path, recs)
