# A stand-in for detect-secrets' package: the extractor wants the directory.
