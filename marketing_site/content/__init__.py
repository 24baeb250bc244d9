"""The site's words and its language-neutral facts, kept apart from layout code.

The words are `content/<lang>/` (YAML and Markdown, read through `content.words`); the modules
here hold what no language changes (offer facts, image paths, lead-form definitions, company
facts). Pages only arrange what they find here.
"""
