import os

# Playwright's sync API runs an event loop in this thread; Django must allow ORM use around it.
os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
