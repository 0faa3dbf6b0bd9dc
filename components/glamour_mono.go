package components

import (
	"charm.land/glamour/v2"
	"charm.land/glamour/v2/ansi"
	"charm.land/glamour/v2/styles"
)

// monoStyle is glamour's plain ASCII style with emphasis drawn the way the
// mono theme draws everything: bold, underline and reverse instead of
// colour, rather than leaving markdown's ** and * in the text.
func monoStyle() ansi.StyleConfig {
	on := true
	cfg := styles.ASCIIStyleConfig
	cfg.Strong = ansi.StylePrimitive{Bold: &on}
	cfg.Emph = ansi.StylePrimitive{Underline: &on}
	cfg.Heading.Bold = &on
	cfg.Code = ansi.StyleBlock{StylePrimitive: ansi.StylePrimitive{Inverse: &on}}
	return cfg
}

// glamourStyle picks the renderer option for a theme's glamour style name;
// "notty" is the mono theme.
func glamourStyle(name string) glamour.TermRendererOption {
	if name == "notty" {
		return glamour.WithStyles(monoStyle())
	}
	return glamour.WithStandardStyle(name)
}
