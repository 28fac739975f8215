"""The modules of decision lists (DecisionListClassifier, DecisionListCV): the estimator in ``_estimator`` and one module per job."""
