import sys

from nim_evo.run import main

sys.exit(main())
