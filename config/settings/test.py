"""Test settings: fast hashing, no lockout noise, in-memory e-mail."""

from .base import *  # noqa: F403

DEBUG = False
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"

# Tasks run at once, in the request that enqueues them (the worker is tested on its own).
TASKS = {"default": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend"}}
# Webhook tests post to a server of their own on 127.0.0.1 (the SSRF tests turn this off).
WEBHOOK_LOCAL_ADDRESSES = True
