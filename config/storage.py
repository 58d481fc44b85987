"""The static files storage of production: whitenoise's hashed, compressed copies, with the
ES modules' imports pointed at the hashed names too.

The entry form's and the outbox's scripts (static/js/entry*.js, outbox*.js) are ES modules that
import each other by relative path (``import { x } from "./entry-taps.js";``), with no build
step. Collected under hashed names, a module's import must name its sibling's hashed copy, or
the browser would ask for an unhashed file the service worker never kept (an entry page that
no longer opens offline) and could mix two releases. Django's own
``support_js_module_import_aggregation`` rewrites those imports when ``collectstatic`` runs;
tests/views/test_offline_files.py collects the files with this storage and checks it.
"""

from whitenoise.storage import CompressedManifestStaticFilesStorage


class ModuleManifestStaticFilesStorage(CompressedManifestStaticFilesStorage):
    support_js_module_import_aggregation = True
