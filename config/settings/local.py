"""Development settings: SQLite by default, DEBUG on unless the environment says otherwise."""

from .base import *  # noqa: F403
from .base import env_bool

DEBUG = env_bool("DEBUG", True)
WEBHOOK_LOCAL_ADDRESSES = DEBUG  # hooks to http://localhost while developing
