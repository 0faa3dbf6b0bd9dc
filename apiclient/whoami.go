package apiclient

import (
	"context"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient/catalog"
)

// SystemStatus is GET /api/{service}/v2: the service's build and the calling
// API key with its roles (the only place the API returns a caller's roles).
type SystemStatus struct {
	AppName    string      `json:"appName"`
	Build      string      `json:"build"`
	Throttling bool        `json:"throttling"`
	APIKey     *APIKeyInfo `json:"apiKey"`
}

// APIKeyInfo describes the calling key.
type APIKeyInfo struct {
	ID         string               `json:"id"`
	PublicKey  string               `json:"publicKey"`
	AccessList []AccessListEntry    `json:"accessList,omitempty"`
	Roles      []catalog.Assignment `json:"roles"`
}

// AccessListEntry is one address allowed to use the key.
type AccessListEntry struct {
	CIDRBlock string `json:"cidrBlock,omitempty"`
	IPAddress string `json:"ipAddress,omitempty"`
}

// WhoAmI asks the service who the caller is.
func (c *Client) WhoAmI(ctx context.Context) (*SystemStatus, error) {
	var s SystemStatus
	if _, err := c.Do(ctx, "getSystemStatus", Request{}, &s); err != nil {
		return nil, err
	}
	return &s, nil
}
