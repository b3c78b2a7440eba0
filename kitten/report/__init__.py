"""The visual report: one self-contained HTML file per page with every decision drawn
on the normalized page, beside the output text (``kitten report``, ``kitten extract
--report``), and an index of a batch's reports.

- ``draw.py``: the page's XHTML with its blocks, gate labels, tables, cells, lists,
  removed containers and abbreviations marked, made safe to open (nothing fetched);
- ``page.py``: the page's JSON from the pipeline's products, ``template.html`` filled;
- ``index.py``: ``index.html`` of a folder of reports.
"""
from kitten.report.index import write_index
from kitten.report.page import REPORT_SUFFIX, build_report, write_report

__all__ = ["REPORT_SUFFIX", "build_report", "write_index", "write_report"]
