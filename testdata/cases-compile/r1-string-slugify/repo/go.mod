module example.com/slugify

go 1.26
