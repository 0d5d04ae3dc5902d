"""AlphaZero-style training (expert iteration): ``mk-env train --algo az``.

Self-play with information-set MCTS guided by a policy-value network (:mod:`agents.az_search`,
:mod:`agents.az_net`), many games in lockstep so that their leaves share one network call
(:mod:`training.az.selfplay`), a replay buffer of visit distributions and outcomes (:mod:`training.az.buffer`),
training (:mod:`training.az.learner`), gating against the previous best, checkpoints and ``--resume``
(:mod:`training.az.run`, :mod:`training.az.files`), and the command line (:mod:`training.az.cli`).
The results play as ``az:DIR/best.safetensors`` (network + search) and ``aznet:DIR/best.safetensors``
(the network alone).
"""
