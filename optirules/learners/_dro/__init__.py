"""The modules of the DRO ensemble of rule sets (DRORuleEnsembleClassifier): the estimator in ``_estimator`` and one module per job."""
