"""Settings every test shares."""

from hypothesis import settings

# No test may depend on the machine's speed (CI is a busy machine): hypothesis's per-example
# deadline would turn a slow moment into a failure, so it is off for every property test.
settings.register_profile("scoreboard", deadline=None)
settings.load_profile("scoreboard")
