"""Build of the optional C extensions; everything else is in pyproject.toml.

``kitten.normalizer._fastwrite`` writes the common case of the XHTML writer in C
(see kitten/normalizer/fastwrite.py); ``kitten.tables._forest`` evaluates the table
and cell decision forests (kitten/tables/model.py); ``kitten._links`` counts the link
letters of list items (kitten/lists.py) and of the gate's blocks
(kitten/boilerplate/features.py) on lxml's tree and ``kitten._structure`` walks it for
the structure step (kitten/structure.py) and the gate's block contexts, both built when
lxml, whose headers they read, is installed where the build runs; ``kitten.boilerplate._facts`` counts the
characters and tokens of the gate's blocks (``text_facts`` in
kitten/boilerplate/features.py), sums their feature weights (``Scorer.sums`` in
kitten/boilerplate/crf.py) and runs the CRF's forward-backward (``Scorer.marginals``).
All are optional: without a C compiler the install still succeeds and Python does the
whole job, slower.
"""
from setuptools import Extension, setup

try:
    import lxml
except ImportError:  # no lxml headers: kitten/lists.py counts in Python
    lxml = None

setup(ext_modules=[
    Extension("kitten.normalizer._fastwrite", ["kitten/normalizer/_fastwrite.c"], optional=True,
              extra_compile_args=["-O2"]),
    Extension("kitten.tables._forest", ["kitten/tables/_forest.c"], optional=True, extra_compile_args=["-O2"]),
    Extension("kitten.boilerplate._facts", ["kitten/boilerplate/_facts.c"], optional=True,
              extra_compile_args=["-O2"]),
] + ([Extension(name, [source], optional=True, extra_compile_args=["-O2"], include_dirs=lxml.get_include())
       for name, source in (("kitten._links", "kitten/_links.c"), ("kitten._structure", "kitten/_structure.c"))]
      if lxml is not None else []))
