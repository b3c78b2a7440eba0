"""``python -m kitten`` is the ``kitten`` command."""
from kitten.cli import console

console()
