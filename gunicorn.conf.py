"""gunicorn settings, all overridable from the environment (HOST, PORT, WEB_CONCURRENCY, LOG_LEVEL)."""
import multiprocessing
import os

bind = f"{os.environ.get('HOST', '127.0.0.1')}:{os.environ.get('PORT', '8000')}"
workers = int(os.environ.get("WEB_CONCURRENCY", multiprocessing.cpu_count()))
loglevel = os.environ.get("LOG_LEVEL", "info").lower()
accesslog = "-"
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "30"))
graceful_timeout = 20
preload_app = True  # load the rules tables once, before forking
worker_tmp_dir = "/dev/shm" if os.path.isdir("/dev/shm") else None
