"""One settings file, driven by the environment, with safe defaults.

Every variable read here is listed in README.md ("Configuration"). With no
environment at all the site runs on SQLite, without Redis (Celery tasks run in
process) and without an API key (the offline coach answers).
"""

import os
from datetime import timedelta
from decimal import Decimal
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = env_bool("DEBUG")

SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        # Refuse to run a non-debug site on a key that is public in this file.
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off.")
    SECRET_KEY = "django-insecure-development-only-key"

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "127.0.0.1,localhost" if DEBUG else "")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    # Django's admin on the site's AdminSite: every admin search is bounded (config/admin_tools.py).
    "config.apps.ArgueAdminConfig",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "csp",
    "django_htmx",
    "template_partials",
    "coach",
    "engine",
    "debates",
    "trials",
    "limits",
    "casefiles",
    "inquiries",
    "tournaments",
    "stresstests",
    "classroom",
    "feedback",
    "discussions",
    "home",
    "lti_tool",
    "lti",
    "accounts",
    "axes",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    # Lets the LMS that launched a session frame its pages (lti/framing.py): between
    # django-csp and the session, CSRF and clickjacking middleware, on purpose.
    "lti.middleware.LtiFramingMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # Before anything reads the body (CSRF reads the form): a body over the limit is a 413.
    "limits.body.RefusedBodyMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Sign-in and password-reset requests from an address over its allowance: a 429.
    "accounts.middleware.SignInThrottleMiddleware",
    # Last, as django-axes asks: it turns a locked-out sign-in into the lockout page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

# SQLite unless DATABASE_URL names another database (PostgreSQL in CI and production).
DATABASE_URL = os.environ.get("DATABASE_URL", "")
if DATABASE_URL:
    DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=0)}
    # Under ASGI each request runs its sync code in a thread of its own, so without a
    # pool every request opens a PostgreSQL connection and closes it (conn_max_age
    # cannot keep one): a millisecond of this process's CPU, a new server process and
    # several milliseconds of waiting, per request. DATABASE_POOL_SIZE > 0 keeps up to
    # that many open (Django's psycopg pool); a request past it waits up to 10 s for
    # one. Size it above the requests served at once (docs/coach.md): a coach turn keeps
    # its connection to its last line, a live page gives its back once it has started
    # (config/stream_connections.py). `check --deploy` warns without one (config/checks.py).
    DATABASE_POOL_SIZE = int(os.environ.get("DATABASE_POOL_SIZE", "0"))
    if DATABASE_POOL_SIZE > 0 and DATABASES["default"]["ENGINE"].endswith("postgresql"):
        DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
            "min_size": min(4, DATABASE_POOL_SIZE),
            "max_size": DATABASE_POOL_SIZE,
            "timeout": 10,
        }
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": os.environ.get("SQLITE_PATH", str(BASE_DIR / "db.sqlite3")),
            # Streaming views and in-process workers write from several threads
            # (under ASGI each request runs its sync code in its own thread). BEGIN
            # IMMEDIATE makes a writer wait for the lock (up to `timeout`) instead of
            # failing at once with "database is locked" when a read transaction tries
            # to upgrade; WAL lets readers go on while one writer commits.
            # synchronous=NORMAL: in WAL mode a commit no longer waits for fsync; a
            # crash of the process loses nothing, a power cut at most the last commits.
            "OPTIONS": {
                "timeout": 20,
                "transaction_mode": "IMMEDIATE",
                "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            },
        }
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# django-axes first: it refuses a locked-out sign-in before the password is checked.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
LOGIN_URL = "login"
# Django's database sessions. Not `cached_db`: its load() writes the cache unguarded, so
# a Redis outage would fail every signed-in request (the rate windows let requests through
# then: limits/rates.py), and without Redis the cache is a per-process LocMemCache of 300
# entries where sessions would push out rate windows. A session costs one read by key.
SESSION_ENGINE = "django.contrib.sessions.backends.db"
# Sign-in lands a student on their own page (their arguments, trials, debates) and
# staff on their classes (home.views.signed_in).
LOGIN_REDIRECT_URL = "signed_in"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("es", "Español")]
LOCALE_PATHS = [BASE_DIR / "locale"]
# The header's language switch stores the choice in this cookie; a year, so a
# student who picked Spanish is not sent back to the browser's language next week.
LANGUAGE_COOKIE_AGE = 365 * 24 * 60 * 60
LANGUAGE_COOKIE_SAMESITE = "Lax"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"
# uvicorn serves /static/ itself when this is on (see config/asgi.py).
SERVE_STATIC = env_bool("SERVE_STATIC", default=DEBUG)

if not DEBUG:
    SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", default=True)
    CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
    # The language choice too: never sent over plain http when the session is not.
    LANGUAGE_COOKIE_SECURE = SESSION_COOKIE_SECURE

# --- HTTPS and browser security headers -------------------------------------
# With DEBUG off, `manage.py check --deploy` passes on these defaults: plain
# http is redirected to https and browsers are told to use https for a year.
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", default=not DEBUG)
# Load balancers and uptime probes ask for /healthz over plain http.
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "0" if DEBUG else "31536000"))
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=True)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", default=True)
# Behind a proxy that terminates TLS, Django sees plain http and would redirect
# forever: name the header the proxy sets, e.g. "HTTP_X_FORWARDED_PROTO,https".
# Opt-in only, since trusting the header from a client that reaches the site
# directly would let it claim https.
if proxy_header := os.environ.get("SECURE_PROXY_SSL_HEADER", "").strip():
    header_name, _, header_value = proxy_header.partition(",")
    if not header_name.strip() or not header_value.strip():
        raise ImproperlyConfigured(
            "SECURE_PROXY_SSL_HEADER must look like HTTP_X_FORWARDED_PROTO,https"
        )
    SECURE_PROXY_SSL_HEADER = (header_name.strip(), header_value.strip())

# Content-Security-Policy (django-csp): scripts, styles and connections only
# from this site, no inline script or style, no plugins, no framing. Every
# page's script is a static file and its data an application/json block.
# Report-only in debug: Django's own error pages there use inline styles and
# scripts; the browser still reports every violation on the console.
# (Not a setting named CSP_*: django-csp would take it for its old-style settings.)
_csp_report_only = env_bool("CSP_REPORT_ONLY", default=DEBUG)
_CSP = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}
if _csp_report_only:
    CONTENT_SECURITY_POLICY_REPORT_ONLY = _CSP
else:
    CONTENT_SECURITY_POLICY = _CSP

# --- Redis and Celery -------------------------------------------------------
REDIS_URL = os.environ.get("REDIS_URL", "")
CELERY_BROKER_URL = REDIS_URL or "memory://"
# Without a broker, tasks run in the process that enqueues them (see README).
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", default=not REDIS_URL)
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Seconds before Redis hands an unacknowledged task (its worker died) to another worker.
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": int(os.environ.get("CELERY_VISIBILITY_TIMEOUT", "3600"))
}
# A debate's worker holds it for this long between heartbeats (engine/claiming.py);
# longer than one model call with its retries.
# Case files (casefiles/): the largest upload accepted as a source.
# Seconds an LMS (LTI token, roster, grade passback) may take to answer one call.
LTI_PLATFORM_TIMEOUT_SECONDS = float(os.environ.get("LTI_PLATFORM_TIMEOUT_SECONDS", "10"))
# Origins besides each registered platform's own that may frame the LTI pages
# (e.g. "https://school.instructure.com" when the platform's URLs name another host).
LTI_FRAME_ANCESTORS = env_list("LTI_FRAME_ANCESTORS")
CASEFILE_MAX_UPLOAD_BYTES = int(os.environ.get("CASEFILE_MAX_UPLOAD_BYTES", str(10 * 1024 * 1024)))
# One source may make at most so many spans, one case file hold so many spans and
# sources: a million one-word lines would otherwise take minutes and gigabytes.
CASEFILE_MAX_SPANS_PER_SOURCE = int(os.environ.get("CASEFILE_MAX_SPANS_PER_SOURCE", "5000"))
CASEFILE_MAX_SPANS_PER_CASE_FILE = int(os.environ.get("CASEFILE_MAX_SPANS_PER_CASE_FILE", "20000"))
CASEFILE_MAX_SOURCES = int(os.environ.get("CASEFILE_MAX_SOURCES", "200"))
# Form fields other than files: a pasted source of 1,000,000 characters, percent-encoded,
# fits (Django's 2.5 MB default would answer a bare 400). Files stream to disk past 2.5 MB.
DATA_UPLOAD_MAX_MEMORY_SIZE = 8 * 1024 * 1024
FILE_UPLOAD_MAX_MEMORY_SIZE = 2621440
# The largest request body read at all: a bigger one, declared or chunked, is cut and
# answered 413 before it reaches a view (limits/body.py). The largest upload or form fits.
MAX_REQUEST_BODY_BYTES = int(
    os.environ.get(
        "MAX_REQUEST_BODY_BYTES",
        str(max(CASEFILE_MAX_UPLOAD_BYTES, DATA_UPLOAD_MAX_MEMORY_SIZE) + 1024 * 1024),
    )
)
# ASGI wrappers around the whole site, innermost first (config/asgi.py applies them).
ASGI_WRAPPERS = ["limits.body.BodyLimit"]

DEBATE_LEASE_SECONDS = float(os.environ.get("DEBATE_LEASE_SECONDS", "300"))

# --- Cache --------------------------------------------------------------------
# Rate-limit counters live here. With Redis, every web worker shares them and
# INCR is atomic. Without it the site is one process (background work runs in
# its threads too), and a per-process memory cache is exact for that.
if REDIS_URL:
    CACHES = {
        "default": {
            # Django's RedisCache, its connections kept across requests (config/cache.py).
            "BACKEND": "config.cache.SharedPoolRedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": "argue",
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# --- Spending and abuse limits (limits/, README "Configuration") --------------
# Per user, across coach turns, debates and trials; 0 turns a limit off.
QUOTA_DAILY_USD = Decimal(os.environ.get("QUOTA_DAILY_USD", "5"))
QUOTA_MONTHLY_USD = Decimal(os.environ.get("QUOTA_MONTHLY_USD", "50"))
# action -> (how many, per how many seconds); a later format adds its own entry.
RATE_LIMITS = {
    "coach_turn": (int(os.environ.get("RATE_COACH_TURNS_PER_MINUTE", "20")), 60),
    "debate": (int(os.environ.get("RATE_DEBATES_PER_HOUR", "6")), 3600),
    "trial": (int(os.environ.get("RATE_TRIALS_PER_HOUR", "10")), 3600),
    "tournament": (int(os.environ.get("RATE_TOURNAMENTS_PER_HOUR", "6")), 3600),
    "stress_test": (int(os.environ.get("RATE_STRESS_TESTS_PER_HOUR", "6")), 3600),
    "inquiry": (int(os.environ.get("RATE_INQUIRIES_PER_HOUR", "6")), 3600),
    # Sources added to case files (pasted or uploaded; a PDF is read in a process of its own).
    "source": (int(os.environ.get("RATE_SOURCES_PER_HOUR", "30")), 3600),
    # The AI check of one's own objection in a class discussion (one cheap call each).
    "discussion_check": (int(os.environ.get("RATE_DISCUSSION_CHECKS_PER_HOUR", "20")), 3600),
}
MAX_RUNNING_DEBATES_PER_USER = int(os.environ.get("MAX_RUNNING_DEBATES_PER_USER", "2"))
# Instructors pay the bill and try things out: no quota or rate for staff.
LIMITS_EXEMPT_STAFF = env_bool("LIMITS_EXEMPT_STAFF", default=True)
# Without a broker, debates and trials run in at most this many threads; the
# rest wait in line (config/background.py).
BACKGROUND_THREADS = int(os.environ.get("BACKGROUND_THREADS", "4"))
# ... and one user's work holds at most this many of them (never all): the
# others' runs are not kept waiting behind one student's queue.
BACKGROUND_THREADS_PER_USER = int(os.environ.get("BACKGROUND_THREADS_PER_USER", "2"))
# Live pages (engine/sse.py): event streams one account may hold open at once,
# and how long one lives before the page reconnects (0: no limit).
SSE_MAX_STREAMS_PER_USER = int(os.environ.get("SSE_MAX_STREAMS_PER_USER", "4"))
SSE_MAX_STREAM_SECONDS = int(os.environ.get("SSE_MAX_STREAM_SECONDS", "120"))
# A live page whose run failed (its stream over) asks again after this long, then twice
# as long each time (static/js/live_stream.js): a retry from elsewhere still reaches it.
LIVE_REOPEN_SECONDS = float(os.environ.get("LIVE_REOPEN_SECONDS", "30"))
# Self-signup: open in development, closed on a production site unless asked
# for (each account gets its own quota, so open signup multiplies the spend).
SIGNUP_OPEN = env_bool("SIGNUP_OPEN", default=DEBUG)

# Sign-in throttling (django-axes): after LOGIN_FAILURE_LIMIT wrong passwords
# for one username from one address, that pair is locked out for
# LOGIN_LOCKOUT_MINUTES. Per pair, so a classroom behind one address is not
# locked out by one student's typos, nor a student by someone else's guesses.
AXES_FAILURE_LIMIT = int(os.environ.get("LOGIN_FAILURE_LIMIT", "5"))
AXES_COOLOFF_TIME = timedelta(minutes=float(os.environ.get("LOGIN_LOCKOUT_MINUTES", "15")))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_DISABLE_ACCESS_LOG = True  # failures are enough; no log of every sign-in
AXES_LOCKOUT_CALLABLE = "limits.views.locked_out"
AXES_USERNAME_CALLABLE = "untrusted.forms.signin_username"  # storable, not too long
AXES_VERBOSE = False
# The address axes and the per-address throttles count against (accounts/addresses.py).
AXES_CLIENT_IP_CALLABLE = "accounts.throttle.axes_address"
# How many reverse proxies in front of the site append to X-Forwarded-For. 0: the
# header is trusted from nobody (accounts/addresses.py says what then counts).
TRUSTED_PROXIES = int(os.environ.get("TRUSTED_PROXIES", "0"))
# Per address, whatever the usernames (a password spray): after so many failed
# sign-ins within so many minutes, signing in from there waits (accounts/throttle.py).
LOGIN_ADDRESS_FAILURE_LIMIT = int(os.environ.get("LOGIN_ADDRESS_FAILURE_LIMIT", "20"))
LOGIN_ADDRESS_WINDOW_MINUTES = float(os.environ.get("LOGIN_ADDRESS_WINDOW_MINUTES", "15"))
PASSWORD_RESET_PER_HOUR = int(os.environ.get("PASSWORD_RESET_PER_HOUR", "5"))
PASSWORD_RESET_PER_EMAIL_PER_HOUR = int(os.environ.get("PASSWORD_RESET_PER_EMAIL_PER_HOUR", "3"))

# --- The language model -----------------------------------------------------
# The anthropic SDK itself reads ANTHROPIC_API_KEY and ANTHROPIC_BASE_URL.
ANTHROPIC_API_KEY = os.environ.get("ANTHROPIC_API_KEY", "")
COACH_MODEL = os.environ.get("COACH_MODEL", "claude-sonnet-5-5")
DEBATE_MODEL = os.environ.get("DEBATE_MODEL", "claude-sonnet-5-5")
CHEAP_MODEL = os.environ.get("CHEAP_MODEL", "claude-haiku-5-5")
# Tournaments: identical model requests are answered from the response cache
# for this long (tournaments/cache.py).
TOURNAMENT_CACHE_TTL_SECONDS = int(
    os.environ.get("TOURNAMENT_CACHE_TTL_SECONDS", str(7 * 24 * 3600))
)
TRIAL_MODEL = os.environ.get("TRIAL_MODEL", "claude-sonnet-5-5")
LLM_TIMEOUT_SECONDS = float(os.environ.get("LLM_TIMEOUT_SECONDS", "60"))
LLM_MAX_RETRIES = int(os.environ.get("LLM_MAX_RETRIES", "2"))
# The whole of one model call, retries and streaming included: the timeout
# above is per read, so a reply trickling in would otherwise never end.
LLM_DEADLINE_SECONDS = float(os.environ.get("LLM_DEADLINE_SECONDS", "120"))
# Longest model reply read, in characters; past it the reply is cut off and
# the call fails. No call asks for more than 2,500 tokens (~10,000 characters).
LLM_MAX_REPLY_CHARS = int(os.environ.get("LLM_MAX_REPLY_CHARS", "100000"))
# The one price table (llm/pricing.py has the arithmetic): USD per million
# tokens, late-2026 list prices. Cache writes (5-minute TTL) cost 1.25x input
# and cache reads 0.1x input; Haiku's price holds for prompts up to 100k tokens
# (the long-context tier is not modelled). Prices change: keep them here, not in code.
LLM_PRICES = {
    "claude-haiku-5-5": {
        "input": Decimal("0.10"),
        "output": Decimal("0.50"),
        "cache_write": Decimal("0.125"),
        "cache_read": Decimal("0.01"),
    },
    "claude-sonnet-5-5": {
        "input": Decimal("2"),
        "output": Decimal("10"),
        "cache_write": Decimal("2.5"),
        "cache_read": Decimal("0.2"),
    },
    "claude-opus-5-5": {
        "input": Decimal("4"),
        "output": Decimal("20"),
        "cache_write": Decimal("5"),
        "cache_read": Decimal("0.4"),
    },
}

# --- Benchmarks and reference data ------------------------------------------
ICCMA_DIR = Path(os.environ.get("ICCMA_DIR", BASE_DIR.parent / "shared" / "iccma"))

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    # django-axes logs every sign-in at INFO; lockouts and failures are WARNING.
    "loggers": {"axes": {"level": "WARNING"}},
}
