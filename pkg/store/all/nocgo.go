//go:build !cgo

package all

import "github.com/gobench/gobench/pkg/store"

const defaultDriver = "modernc"

func registerCgo(*store.Registry) {}
