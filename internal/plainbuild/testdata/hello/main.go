// Command hello is the main package TestCommandCached builds.
package main

import "fmt"

func main() { fmt.Println("hello") }
