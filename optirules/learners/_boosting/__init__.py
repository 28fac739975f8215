"""The modules of boosting (BoostingClassifier, ResampledAdaBoostClassifier): the estimator in ``_estimator`` and one module per job."""
