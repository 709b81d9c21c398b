"""The engine's models, moved out of ``debates``: their state only, no table touched.

The tables keep their names (``debates_debate``, ``debates_persona``,
``debates_stagerun``, ``debates_debateevent``, ``debates_llmcall`` and the
personas' join table), so every row stays where it is; ``debates.0010`` drops
the models from the ``debates`` state, and ``0002`` here moves their content
types (and with them every permission granted on them).
"""

import django.core.validators
import django.db.models.deletion
from decimal import Decimal
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
        ("debates", "0009_field_labels"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="Persona",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        ("name", models.CharField(max_length=80, unique=True, verbose_name="name")),
                        (
                            "worldview",
                            models.TextField(
                                help_text="A paragraph: what this persona values and how it argues.",
                                verbose_name="worldview",
                            ),
                        ),
                        (
                            "model",
                            models.CharField(
                                blank=True,
                                default="",
                                help_text="Leave empty to use the site's DEBATE_MODEL.",
                                max_length=100,
                                verbose_name="model",
                            ),
                        ),
                        ("active", models.BooleanField(default=True, verbose_name="active")),
                        (
                            "created_at",
                            models.DateTimeField(auto_now_add=True, verbose_name="created at"),
                        ),
                        (
                            "updated_at",
                            models.DateTimeField(auto_now=True, verbose_name="updated at"),
                        ),
                    ],
                    options={
                        "verbose_name": "persona",
                        "verbose_name_plural": "personas",
                        "db_table": "debates_persona",
                        "ordering": ["name"],
                    },
                ),
                migrations.CreateModel(
                    name="Debate",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        (
                            "format",
                            models.CharField(
                                db_index=True, default="graph", max_length=20, verbose_name="format"
                            ),
                        ),
                        ("topic", models.TextField(verbose_name="topic")),
                        (
                            "max_rounds",
                            models.PositiveSmallIntegerField(
                                default=3,
                                validators=[
                                    django.core.validators.MinValueValidator(1),
                                    django.core.validators.MaxValueValidator(5),
                                ],
                                verbose_name="max rounds",
                            ),
                        ),
                        (
                            "budget_usd",
                            models.DecimalField(
                                decimal_places=4,
                                default=Decimal("1.00"),
                                max_digits=10,
                                validators=[django.core.validators.MinValueValidator(Decimal("0"))],
                                verbose_name="budget (USD)",
                            ),
                        ),
                        (
                            "status",
                            models.CharField(
                                choices=[
                                    ("queued", "queued"),
                                    ("running", "running"),
                                    ("done", "done"),
                                    ("stopped", "stopped"),
                                    ("failed", "failed"),
                                ],
                                default="queued",
                                max_length=10,
                                verbose_name="status",
                            ),
                        ),
                        (
                            "stop_reason",
                            models.CharField(
                                blank=True,
                                choices=[
                                    ("BUDGET", "budget spent"),
                                    ("CRITICAL_DEFECT", "critical defect"),
                                    ("MAX_ROUNDS", "maximum rounds reached"),
                                    ("CONSENSUS", "consensus"),
                                    ("STABLE_DISSENT", "stable dissent"),
                                    ("EVIDENCE_EXHAUSTED", "evidence exhausted"),
                                ],
                                default="",
                                max_length=20,
                                verbose_name="stop reason",
                            ),
                        ),
                        (
                            "stop_detail",
                            models.TextField(blank=True, default="", verbose_name="stop detail"),
                        ),
                        (
                            "stop_code",
                            models.CharField(
                                blank=True, default="", max_length=40, verbose_name="stop code"
                            ),
                        ),
                        (
                            "stop_params",
                            models.JSONField(
                                blank=True, default=dict, verbose_name="stop parameters"
                            ),
                        ),
                        ("is_demo", models.BooleanField(default=False, verbose_name="demo")),
                        (
                            "claims",
                            models.JSONField(blank=True, default=list, verbose_name="claims"),
                        ),
                        (
                            "rounds_completed",
                            models.PositiveSmallIntegerField(
                                default=0, verbose_name="rounds completed"
                            ),
                        ),
                        (
                            "cost_usd",
                            models.DecimalField(
                                decimal_places=6,
                                default=Decimal("0"),
                                max_digits=12,
                                verbose_name="cost (USD)",
                            ),
                        ),
                        ("output", models.JSONField(blank=True, null=True, verbose_name="output")),
                        (
                            "failure",
                            models.CharField(
                                blank=True,
                                choices=[
                                    ("service_unavailable", "the AI service was unavailable"),
                                    ("no_api_key", "no API key"),
                                    ("internal", "internal error"),
                                ],
                                default="",
                                max_length=20,
                                verbose_name="failure",
                            ),
                        ),
                        ("error", models.TextField(blank=True, default="", verbose_name="error")),
                        (
                            "event_seq",
                            models.PositiveIntegerField(
                                default=0, editable=False, verbose_name="event sequence"
                            ),
                        ),
                        (
                            "claimed_by",
                            models.CharField(
                                blank=True,
                                default="",
                                editable=False,
                                max_length=200,
                                verbose_name="claimed by",
                            ),
                        ),
                        (
                            "lease_expires_at",
                            models.DateTimeField(
                                blank=True,
                                editable=False,
                                null=True,
                                verbose_name="lease expires at",
                            ),
                        ),
                        (
                            "attempts",
                            models.PositiveIntegerField(
                                default=0, editable=False, verbose_name="attempts"
                            ),
                        ),
                        (
                            "created_at",
                            models.DateTimeField(auto_now_add=True, verbose_name="created at"),
                        ),
                        (
                            "started_at",
                            models.DateTimeField(blank=True, null=True, verbose_name="started at"),
                        ),
                        (
                            "finished_at",
                            models.DateTimeField(blank=True, null=True, verbose_name="finished at"),
                        ),
                        (
                            "updated_at",
                            models.DateTimeField(auto_now=True, verbose_name="updated at"),
                        ),
                        (
                            "creator",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="debates",
                                to=settings.AUTH_USER_MODEL,
                                verbose_name="creator",
                            ),
                        ),
                        (
                            "personas",
                            models.ManyToManyField(
                                db_table="debates_debate_personas",
                                related_name="debates",
                                to="engine.persona",
                                verbose_name="personas",
                            ),
                        ),
                    ],
                    options={
                        "verbose_name": "debate",
                        "verbose_name_plural": "debates",
                        "db_table": "debates_debate",
                        "ordering": ["-created_at", "-id"],
                    },
                ),
                migrations.CreateModel(
                    name="StageRun",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        ("name", models.CharField(max_length=40, verbose_name="name")),
                        (
                            "round",
                            models.PositiveSmallIntegerField(default=0, verbose_name="round"),
                        ),
                        ("input_hash", models.CharField(max_length=64, verbose_name="input hash")),
                        (
                            "output_hash",
                            models.CharField(max_length=64, verbose_name="output hash"),
                        ),
                        (
                            "calls",
                            models.PositiveSmallIntegerField(default=0, verbose_name="calls"),
                        ),
                        (
                            "cost_usd",
                            models.DecimalField(
                                decimal_places=6,
                                default=Decimal("0"),
                                max_digits=12,
                                verbose_name="cost (USD)",
                            ),
                        ),
                        (
                            "finished_at",
                            models.DateTimeField(auto_now_add=True, verbose_name="finished at"),
                        ),
                        (
                            "debate",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="stages",
                                to="engine.debate",
                                verbose_name="debate",
                            ),
                        ),
                    ],
                    options={
                        "verbose_name": "stage",
                        "verbose_name_plural": "stages",
                        "db_table": "debates_stagerun",
                        "ordering": ["debate", "id"],
                    },
                ),
                migrations.CreateModel(
                    name="DebateEvent",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        ("seq", models.PositiveIntegerField(verbose_name="sequence")),
                        ("type", models.CharField(max_length=30, verbose_name="type")),
                        ("payload", models.JSONField(default=dict, verbose_name="payload")),
                        (
                            "created_at",
                            models.DateTimeField(auto_now_add=True, verbose_name="created at"),
                        ),
                        (
                            "debate",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="events",
                                to="engine.debate",
                                verbose_name="debate",
                            ),
                        ),
                    ],
                    options={
                        "verbose_name": "debate event",
                        "verbose_name_plural": "debate events",
                        "db_table": "debates_debateevent",
                        "ordering": ["debate", "seq"],
                        "constraints": [
                            models.UniqueConstraint(
                                fields=("debate", "seq"), name="debate_event_seq_unique"
                            )
                        ],
                    },
                ),
                migrations.CreateModel(
                    name="LLMCall",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        ("stage", models.CharField(max_length=40, verbose_name="stage")),
                        (
                            "agent",
                            models.CharField(
                                blank=True, default="", max_length=40, verbose_name="agent"
                            ),
                        ),
                        (
                            "round",
                            models.PositiveSmallIntegerField(default=0, verbose_name="round"),
                        ),
                        ("model", models.CharField(max_length=100, verbose_name="model")),
                        (
                            "request_hash",
                            models.CharField(max_length=64, verbose_name="request hash"),
                        ),
                        (
                            "input_tokens",
                            models.PositiveIntegerField(default=0, verbose_name="input tokens"),
                        ),
                        (
                            "output_tokens",
                            models.PositiveIntegerField(default=0, verbose_name="output tokens"),
                        ),
                        (
                            "cache_creation_input_tokens",
                            models.PositiveIntegerField(
                                default=0, verbose_name="cache creation input tokens"
                            ),
                        ),
                        (
                            "cache_read_input_tokens",
                            models.PositiveIntegerField(
                                default=0, verbose_name="cache read input tokens"
                            ),
                        ),
                        (
                            "cost_usd",
                            models.DecimalField(
                                decimal_places=6,
                                default=Decimal("0"),
                                max_digits=12,
                                verbose_name="cost (USD)",
                            ),
                        ),
                        (
                            "latency_ms",
                            models.PositiveIntegerField(default=0, verbose_name="latency (ms)"),
                        ),
                        (
                            "status",
                            models.CharField(
                                choices=[("ok", "ok"), ("failed", "failed")],
                                max_length=10,
                                verbose_name="status",
                            ),
                        ),
                        (
                            "error_code",
                            models.CharField(
                                blank=True, default="", max_length=30, verbose_name="error code"
                            ),
                        ),
                        (
                            "error_detail",
                            models.TextField(blank=True, default="", verbose_name="error detail"),
                        ),
                        (
                            "raw_text",
                            models.TextField(blank=True, default="", verbose_name="raw text"),
                        ),
                        (
                            "created_at",
                            models.DateTimeField(auto_now_add=True, verbose_name="created at"),
                        ),
                        (
                            "debate",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="llm_calls",
                                to="engine.debate",
                                verbose_name="debate",
                            ),
                        ),
                        (
                            "persona",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="llm_calls",
                                to="engine.persona",
                                verbose_name="persona",
                            ),
                        ),
                    ],
                    options={
                        "verbose_name": "model call",
                        "verbose_name_plural": "model calls",
                        "db_table": "debates_llmcall",
                        "ordering": ["debate", "id"],
                        "constraints": [
                            models.UniqueConstraint(
                                fields=("debate", "request_hash"),
                                name="debate_llm_call_once_per_request",
                            )
                        ],
                    },
                ),
                migrations.AddIndex(
                    model_name="debate",
                    index=models.Index(
                        fields=["creator", "-created_at"], name="debates_deb_creator_6fba16_idx"
                    ),
                ),
                migrations.AddIndex(
                    model_name="debate",
                    index=models.Index(
                        fields=["status", "lease_expires_at"], name="debates_deb_status_81a0f5_idx"
                    ),
                ),
                migrations.AddConstraint(
                    model_name="stagerun",
                    constraint=models.UniqueConstraint(
                        fields=("debate", "name", "round"), name="debate_stage_once_per_round"
                    ),
                ),
            ],
            database_operations=[],
        ),
    ]
