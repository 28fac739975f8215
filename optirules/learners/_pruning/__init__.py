"""The modules of ensemble pruning (QMMPruner, KappaPruner, DREPPruner): the estimator in ``_estimator`` and one module per job."""
