package slugify
