"""The book's data: manifests, results, keys, tables and charts.

Modules: awk (how numbers print), csvio (the CSV reader), manifest (the
schema and reader of the chapters' manifests), answers (the worked
answers' preambles), code (code hashes, the results folder), keys (the
key store), measured, derived, tables, models (the stages that make the
keys), charts, readme, makevars, pipeline, cli.
"""
