"""Celery application: Redis is the broker when REDIS_URL is set.

Start a worker for real use with:  celery -A config worker -l info
"""

import os

from celery import Celery
from celery.signals import worker_process_init, worker_ready

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("config")
# Every CELERY_* Django setting configures the app (CELERY_BROKER_URL -> broker_url, ...).
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@worker_process_init.connect  # each pool process of a prefork worker, after the fork
@worker_ready.connect  # a solo or thread pool worker: its one process, once started
def _settle_heap(**_: object) -> None:
    # What a worker loads at start-up, out of the garbage collector's way (config/heap.py).
    from config.heap import settle

    settle()
