"""Print the hand-checked alignment sample of corpora/boilerplate/README.md (seed 50: two
pages of each training corpus, five blocks of each; held-out pages skipped)."""
import random
from pathlib import Path
from kitten.config import Config
from kitten.train.boilerplate import page_document
from kitten.boilerplate.align import align_labels
from kitten.evaluation.gold import read_gold
rng = random.Random(50)
c = Config()
held = set(Path('corpora/boilerplate/heldout.txt').read_text().split())
picks = []
for corpus in ['cleaneval-dev', 'cleaneval-final', 'dragnet', 'cleanportaleval', 'readability']:
    names = sorted(p.name for p in Path(f'.cache/corpora/{corpus}/gold').glob('*.txt'))
    for n in rng.sample(names, 2):
        html = next(Path(f'.cache/corpora/{corpus}/html').glob(Path(n).stem + '.*'))
        if f'{corpus}/html/{html.name}' in held: continue
        doc = page_document(html.read_bytes(), c)
        g = read_gold(Path(f'.cache/corpora/{corpus}/gold/{n}'), corpus)
        labs = align_labels(doc.blocks, g)
        for i in sorted(rng.sample(range(len(labs)), min(5, len(labs)))):
            t = ' '.join(doc.blocks[i].text().split())
            prev = ' '.join(doc.blocks[i-1].text().split())[-60:] if i else ''
            gl = ' '.join(g.text.split())
            print(f'{corpus}/{n} #{i} [{labs[i]}] kind={doc.blocks[i].kind}\n  TEXT: {t[:160]}\n  PREV: ...{prev}\n  IN-GOLD: {t[:40] in gl}')
            picks.append(1)
print(len(picks))
