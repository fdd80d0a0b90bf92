"""Settings every test shares."""

from hypothesis import HealthCheck, settings

# No test may depend on the machine's speed (CI is a busy machine): hypothesis's per-example
# deadline would turn a slow moment into a failure, so it is off for every property test, and
# so is its health check that generating the data is too slow.
settings.register_profile("scoreboard", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("scoreboard")
