"""The modules of the Boolean rule set (BooleanRuleSetClassifier, BooleanRuleSetCV): the estimator in ``_estimator`` and one module per job."""
