"""A member's secret feed link: the club's Atom feed and calendar read by a feed reader that
cannot log in (docs/api.md, "Secret feed links")."""

from django.db import models


class FeedKey(models.Model):
    """The key of one member's secret feed links in one club. Only its SHA-256 is kept (the
    links are shown once, when made); making new links revokes the old ones. A key reads as
    its person does on the club's pages, read per request: it dies with the membership (the
    row goes with it, so a person removed and added again does not get the old key back),
    with an account deactivated (refused at every request) and when revoked."""

    membership = models.ForeignKey(
        "tournaments.Membership", on_delete=models.CASCADE, related_name="feed_keys"
    )
    key_hash = models.CharField(max_length=64, unique=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"feed key {self.pk} of membership {self.membership_id}"
