"""The AEC machinery the suite's environments share (PettingZoo and Gymnasium, the env layer):
:mod:`.safety` (the safety wrappers every ``env()`` puts around its ``raw_env``, the illegal-action
warning), :mod:`.wrappers` (the observation styles and :class:`~.wrappers.FlattenObservation`),
:mod:`.masks` (reading an action mask quickly) and :mod:`.version` (the version rule's layout fingerprint)."""
