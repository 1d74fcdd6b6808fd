"""``python -m nim_evo``: the same as ``python -m nim_evo.run``."""

import sys

from nim_evo.cli.interrupt import quiet_until_main

quiet_until_main()  # Ctrl-C during the imports below: one line

from nim_evo.run import main  # noqa: E402

sys.exit(main())
