package components

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestRingKeepsTheLastValuesOldestFirst(t *testing.T) {
	r := NewRing[int](3)
	held := func() []int {
		var out []int
		for i := range r.Len() {
			out = append(out, r.At(i))
		}
		return out
	}
	assert.Equal(t, 3, r.Cap())
	assert.False(t, r.Push(1))
	assert.False(t, r.Push(2))
	assert.False(t, r.Push(3))
	assert.Equal(t, []int{1, 2, 3}, held())
	assert.True(t, r.Push(4), "the ring is full: 1 goes")
	assert.True(t, r.Push(5))
	assert.Equal(t, []int{3, 4, 5}, held())
	r.Clear()
	assert.Equal(t, 0, r.Len())
	assert.Equal(t, 3, r.Cap())
	assert.False(t, r.Push(6))
	assert.Equal(t, []int{6}, held())
}
