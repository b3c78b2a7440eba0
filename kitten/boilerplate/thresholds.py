"""The gate's keep threshold for one page: a block is kept when its content probability
(one minus the CRF's marginal of ``other``) reaches it.

Three settings of ``[boilerplate]``, each tuned on web2025's training sites read by models
that never saw them (``benchmarks/gate_folds.py``) and checked on the held-out sites:

- ``keep_threshold`` (0.5), on every page by default;
- ``keep_thresholds``: lower on the kinds of page (``kitten.page_type``) whose main text is
  varied and the CRF learnt from few pages of (a category's or a listing's items, a
  service's offer, a documentation page);
- ``unsure_below`` / ``unsure_share`` / ``unsure_floor``: on a page the CRF is unsure of
  (its third likeliest block holding a sentence under ``unsure_below``), the threshold is
  at most ``unsure_share`` of that block's probability (not under ``unsure_floor``):
  relative to what the CRF gives that page's prose, not to its scale on the pages it
  learnt from. A shop's cards, a service's feature tiles, a documentation page in a
  framework it never saw get 0.05-0.35 where the menus around them get 0.00-0.02.

Neither lowering applies to a page the page-type classifier gives ``article`` at least
``keep_thresholds_article``: a news page it hesitates over keeps ``keep_threshold``
(old news pages read as listings lose precision otherwise).
"""
from __future__ import annotations

from typing import Sequence

from kitten.config import BoilerplateConfig

#: the page's prose block whose probability measures how sure the CRF is: the third
#: likeliest (one or two sure blocks, a lead or a caption, say little of the rest)
UNSURE_RANK = 3


def page_threshold(config: BoilerplateConfig, page_type: str | None, article: float,
                   probs: Sequence[float], prose: Sequence[int]) -> float:
    """The keep threshold of one page: ``page_type`` the page's kind, ``article`` the
    page-type classifier's probability of ``article``, ``probs`` each unit's content
    probability and ``prose`` its words in sentences (0: no sentence)."""
    threshold = config.keep_threshold
    if article >= config.keep_thresholds_article:
        return threshold
    threshold = config.thresholds_by_kind().get(page_type or "", threshold)
    if config.unsure_below > 0.0:
        sure = sorted((p for p, w in zip(probs, prose) if w), reverse=True)[:UNSURE_RANK]
        if sure and sure[-1] < config.unsure_below:
            threshold = min(threshold, max(config.unsure_floor, config.unsure_share * sure[-1]))
    return threshold
