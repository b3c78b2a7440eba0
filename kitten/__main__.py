"""``python -m kitten`` is the ``kitten`` command."""
from kitten.cli import main

raise SystemExit(main())
