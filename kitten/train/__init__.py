"""Training commands (``kitten train ...``): rebuild the shipped models of ``classifiers/``
from the annotated corpora, deterministically. Needs the ``train`` extra (scikit-learn)."""
