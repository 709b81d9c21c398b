"""The tool's configuration as an LMS administrator needs it.

The Canvas-style JSON follows Canvas's "LTI 1.3 configuration" format
(https://canvas.instructure.com/doc/api/file.lti_dev_key_config.html);
other LMSs take the same URLs typed into a form.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.http import HttpRequest
from django.urls import reverse

__all__ = ["SCOPES", "ToolConfiguration", "tool_configuration"]

SCOPES = (
    "https://purl.imsglobal.org/spec/lti-ags/scope/lineitem",
    "https://purl.imsglobal.org/spec/lti-ags/scope/result.readonly",
    "https://purl.imsglobal.org/spec/lti-ags/scope/score",
    "https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly",
)
TITLE = "Argue: Toulmin coach"


@dataclass(frozen=True)
class ToolConfiguration:
    login_url: str
    launch_url: str
    jwks_url: str
    json_url: str
    domain: str

    def canvas_json(self) -> dict:
        return {
            "title": TITLE,
            "description": "Build a Toulmin argument with a coach, for a class assignment.",
            "oidc_initiation_url": self.login_url,
            "target_link_uri": self.launch_url,
            "public_jwk_url": self.jwks_url,
            "scopes": list(SCOPES),
            "extensions": [
                {
                    "domain": self.domain,
                    "platform": "canvas.instructure.com",
                    "privacy_level": "public",
                    "settings": {
                        "text": TITLE,
                        "placements": [
                            {
                                "placement": "assignment_selection",
                                "message_type": "LtiResourceLinkRequest",
                                "target_link_uri": self.launch_url,
                                # A new window works in every browser; framed in the
                                # course page works too, but not in Safari (docs/lti.md).
                                "windowTarget": "_blank",
                            },
                            {
                                "placement": "link_selection",
                                "message_type": "LtiResourceLinkRequest",
                                "target_link_uri": self.launch_url,
                                # A new window works in every browser; framed in the
                                # course page works too, but not in Safari (docs/lti.md).
                                "windowTarget": "_blank",
                            },
                        ],
                    },
                }
            ],
            "custom_fields": {},
            "claims": ["sub", "iss", "name", "given_name", "family_name", "email"],
        }


def tool_configuration(request: HttpRequest) -> ToolConfiguration:
    def url(name: str) -> str:
        return request.build_absolute_uri(reverse(name))

    return ToolConfiguration(
        login_url=url("lti:login"),
        launch_url=url("lti:launch"),
        jwks_url=url("lti:jwks"),
        json_url=url("lti:config_json"),
        domain=request.get_host(),
    )
