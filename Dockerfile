# Rules service image: slim Python, non-root user, gunicorn, health-checked, runs on a read-only root
# filesystem given a tmpfs for /tmp (`--read-only --tmpfs /tmp`): the Prometheus multiprocess directory
# and gunicorn's control socket, if enabled ($XDG_RUNTIME_DIR), go there; worker heartbeats to /dev/shm.
# Builds on the real python:3.11-slim and on a Debian bookworm base with python3 + python3-venv imported
# under that name (scripts/container-check): the service lives in its own virtualenv, /opt/venv.
FROM python:3.11-slim

# Only for a build behind a TLS-intercepting proxy: the path of a CA bundle that pip must trust, mounted
# into the build (scripts/container-check passes the host's). Unset, pip uses its own bundle.
ARG PIP_CERT

# The image's OCI labels, passed by scripts/build-image (`make image`), which reads them from pyproject.toml
# (name, version, description, license, [project.urls] Source) and git (the commit built). A plain
# `podman build .` leaves them empty.
ARG TITLE
ARG DESCRIPTION
ARG VERSION
ARG REVISION
ARG SOURCE
ARG LICENSES
LABEL org.opencontainers.image.title="${TITLE}" \
      org.opencontainers.image.description="${DESCRIPTION}" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${REVISION}" \
      org.opencontainers.image.source="${SOURCE}" \
      org.opencontainers.image.licenses="${LICENSES}"

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    VIRTUAL_ENV=/opt/venv \
    PATH=/opt/venv/bin:$PATH \
    XDG_RUNTIME_DIR=/tmp \
    HOST=0.0.0.0 \
    PORT=8000 \
    METRICS_PORT=9464 \
    CARD_RULES_OPENAPI_PATH=/app/openapi.yaml

WORKDIR /app

# Dependencies first, read from pyproject.toml, so that a code change reuses this layer.
COPY pyproject.toml /tmp/src/
RUN python3 -m venv /opt/venv \
    && python3 -c "import tomllib; print('\n'.join(tomllib.load(open('/tmp/src/pyproject.toml', 'rb'))['project']['dependencies']))" \
        > /tmp/requirements.txt \
    && pip install --no-cache-dir --requirement /tmp/requirements.txt \
    && rm /tmp/requirements.txt \
    && groupadd --system --gid 10001 rules \
    && useradd --system --uid 10001 --gid rules --no-create-home --home-dir /nonexistent \
        --shell /usr/sbin/nologin rules

# The service itself, installed (and byte-compiled) into the virtualenv; /app keeps only its config.
COPY README.md LICENSE /tmp/src/
COPY service /tmp/src/service
RUN pip install --no-cache-dir --no-deps /tmp/src \
    && rm -rf /tmp/src
COPY openapi.yaml gunicorn.conf.py ./

USER 10001:10001
# 8000: the service (PORT); 9464: /metrics only (METRICS_PORT, gunicorn.conf.py), for Prometheus
EXPOSE 8000 9464
HEALTHCHECK --interval=15s --timeout=3s --start-period=10s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen(f\"http://127.0.0.1:{os.environ.get('PORT', '8000')}/healthz\", timeout=2)"]
ENTRYPOINT ["gunicorn", "--config", "gunicorn.conf.py", "service.wsgi:app"]
