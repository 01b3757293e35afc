//go:build cgo

package main

import msqlite3 "github.com/mattn/go-sqlite3"

func init() { drivers["mattn"] = &msqlite3.SQLiteDriver{} }
