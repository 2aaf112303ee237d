package guard

// Every test of this package runs in parallel with the others: each
// guards a repository of its own, in its own temporary directory, with
// its own Options (no package variable is set), and a guard's process
// check reads only the processes working in, or holding files of, its
// own repository, which another test's processes (git, sleep) never do.
// The tests wait on git far more than they compute: one after another
// they took 35 s of wall, most of it waiting.
