package config

import (
	"fmt"
	"log/slog"
	"strings"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
)

// CredentialsError says which credentials are missing and where to set them.
type CredentialsError struct {
	Profile string
	Missing string // what is missing, in words
}

func (e *CredentialsError) Error() string {
	return fmt.Sprintf("no credentials for profile %q: %s", e.Profile, e.Missing)
}

// Auth builds the client's authentication from the resolved auth type.
func (r *Resolved) Auth() (apiclient.Auth, error) {
	missing := func(what string) error { return &CredentialsError{Profile: r.Name, Missing: what} }
	switch r.AuthType {
	case AuthAPIKeys:
		if !r.PublicKey.IsSet() || !r.PrivateKey.IsSet() {
			return nil, missing("auth_type is api_keys but public_api_key or private_api_key is not set; set MONGODB_ATLAS_PUBLIC_API_KEY and MONGODB_ATLAS_PRIVATE_API_KEY or add them to the profile")
		}
		return apiclient.DigestAuth(r.PublicKey.Reveal(), r.PrivateKey.Reveal()), nil
	case AuthServiceAccount:
		if !r.ClientID.IsSet() || !r.ClientSecret.IsSet() {
			return nil, missing("auth_type is service_account but client_id or client_secret is not set; set MONGODB_ATLAS_CLIENT_ID and MONGODB_ATLAS_CLIENT_SECRET or add them to the profile")
		}
		return apiclient.OAuthAuth(r.ClientID.Reveal(), r.ClientSecret.Reveal()), nil
	case AuthUserAccount:
		if !r.AccessToken.IsSet() {
			return nil, missing("auth_type is user_account but there is no access_token; log in with the cloud CLI or set MONGODB_ATLAS_ACCESS_TOKEN")
		}
		return apiclient.BearerAuth(r.AccessToken.Reveal()), nil
	case AuthNone:
		return apiclient.NoAuth(), nil
	}
	return nil, missing("set MONGODB_ATLAS_PUBLIC_API_KEY and MONGODB_ATLAS_PRIVATE_API_KEY (or MONGODB_ATLAS_CLIENT_ID and MONGODB_ATLAS_CLIENT_SECRET), or run with --profile")
}

// Redacted is a copy whose secrets hold their masked form, for dumping the
// whole structure into a debug view.
func (r Resolved) Redacted() Resolved {
	r.PublicKey = Secret(r.PublicKey.Masked())
	r.PrivateKey = Secret(r.PrivateKey.Masked())
	r.ClientID = Secret(r.ClientID.Masked())
	r.ClientSecret = Secret(r.ClientSecret.Masked())
	r.AccessToken = Secret(r.AccessToken.Masked())
	return r
}

// String is a one-line summary with every secret masked.
func (r Resolved) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "profile %q: base_url=%s service=%s cloud=%s auth_type=%s", r.Name, r.BaseURL, r.Service, r.CloudService, orNone(r.AuthType))
	for _, s := range []struct {
		name  string
		value Secret
	}{
		{"public_api_key", r.PublicKey}, {"private_api_key", r.PrivateKey},
		{"client_id", r.ClientID}, {"client_secret", r.ClientSecret}, {"access_token", r.AccessToken},
	} {
		if s.value.IsSet() {
			fmt.Fprintf(&b, " %s=%s", s.name, s.value.Masked())
		}
	}
	if r.OrgID != "" {
		fmt.Fprintf(&b, " org_id=%s", r.OrgID)
	}
	if r.ProjectID != "" {
		fmt.Fprintf(&b, " project_id=%s", r.ProjectID)
	}
	if len(r.Roles) > 0 {
		fmt.Fprintf(&b, " roles=%d", len(r.Roles))
	}
	if r.ReadOnly {
		b.WriteString(" read_only=true")
	}
	if len(r.Source) > 0 {
		fmt.Fprintf(&b, " from=[%s]", strings.Join(r.Source, "; "))
	}
	return b.String()
}

// Format makes every fmt verb (%v, %+v, %#v, %s, %q) print the masked summary.
func (r Resolved) Format(f fmt.State, verb rune) {
	if verb == 'q' {
		fmt.Fprintf(f, "%q", r.String())
		return
	}
	fmt.Fprint(f, r.String())
}

// LogValue keeps slog output masked.
func (r Resolved) LogValue() slog.Value {
	return slog.GroupValue(
		slog.String("profile", r.Name),
		slog.String("base_url", r.BaseURL),
		slog.String("service", r.Service),
		slog.String("auth_type", r.AuthType),
		slog.String("public_api_key", r.PublicKey.Masked()),
		slog.String("client_id", r.ClientID.Masked()),
		slog.String("org_id", r.OrgID),
		slog.String("project_id", r.ProjectID),
		slog.Bool("read_only", r.ReadOnly),
	)
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}
