"""Build of the optional C extension; everything else is in pyproject.toml.

``kitten.normalizer._fastwrite`` writes the common case of the XHTML writer in C
(see kitten/normalizer/fastwrite.py). It is optional: without a C compiler the
install still succeeds and the Python writer does the whole job, slower.
"""
from setuptools import Extension, setup

setup(ext_modules=[Extension("kitten.normalizer._fastwrite", ["kitten/normalizer/_fastwrite.c"],
                             optional=True, extra_compile_args=["-O2"])])
