package mapstore

import (
	"testing"

	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/store/storetest"
)

func TestConformance(t *testing.T) {
	t.Parallel()
	storetest.Run(t, Driver{}, func(storetest.T) store.Config { return store.Config{} })
}
