"""ASGI entry point: uvicorn serves the site so that NDJSON and SSE responses stream."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
application = get_asgi_application()  # Django's own handler (it sets Django up first)

from django.conf import settings  # noqa: E402  (settings need the app set up first)

if settings.SERVE_STATIC:
    # uvicorn has no static file server; this is the handler `runserver` uses.
    # In production put a web server or a CDN in front and set SERVE_STATIC=0.
    from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler

    application = ASGIStaticFilesHandler(application)

# Outermost: wrappers named in settings (a product app's code, by its dotted path),
# e.g. the request body limit, which must count bytes before Django reads them.
from django.utils.module_loading import import_string  # noqa: E402

for dotted_path in settings.ASGI_WRAPPERS:
    application = import_string(dotted_path)(application)

# Outermost of all: /healthz is answered in the event loop, before any of the above
# (config/health.py says why: through Django it waits on the middleware's thread hops).
from config.health import HealthzFirst  # noqa: E402

application = HealthzFirst(application)

# Last: what start-up loaded, out of the garbage collector's way (config/heap.py).
from config.heap import settle  # noqa: E402

settle()
