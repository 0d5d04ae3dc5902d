"""The AEC machinery the suite's environments share (PettingZoo and Gymnasium, the env layer):
:mod:`.safety` (the safety wrappers every ``env()`` puts around its ``raw_env``, the illegal-action
warning), :mod:`.wrappers` (the observation styles and :class:`~.wrappers.FlattenObservation`),
:mod:`.masks` (reading an action mask quickly), :mod:`.pillow` (Pillow for the ``rgb_array`` pictures, with one
clear error where it is missing) and :mod:`.version` (the version rule's layout fingerprint)."""
