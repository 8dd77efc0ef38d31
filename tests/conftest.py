"""Settings for the whole suite.

Hypothesis's per-example deadline is a timing threshold, and timing thresholds
do not belong in tests on shared, noisy machines: it is off everywhere.
"""

from hypothesis import settings

settings.register_profile("sheshbesh", deadline=None)
settings.load_profile("sheshbesh")
