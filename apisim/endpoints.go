package apisim

import "time"

// Encryption-at-rest private endpoints and serverless private endpoints.

type EARPrivateEndpoint struct {
	ID            string     `json:"id"`
	GroupID       string     `json:"groupId"`
	CloudProvider string     `json:"cloudProvider"`
	RegionName    string     `json:"regionName"`
	CreatedAt     time.Time  `json:"createdAt"`
	DeletingSince *time.Time `json:"deletingSince,omitempty"`
}

type ServerlessPrivateEndpoint struct {
	ID           string    `json:"id"`
	GroupID      string    `json:"groupId"`
	InstanceName string    `json:"instanceName"`
	Comment      string    `json:"comment"`
	CreatedAt    time.Time `json:"createdAt"`
}

const earDeleteFor = 30 * time.Second

func init() {
	handle("getEncryptionAtRestPrivateEndpoint", func(c *call) (any, error) {
		ep, err := c.earEndpoint()
		if err != nil {
			return nil, err
		}
		return ep.view(c.now), nil
	})
	handle("requestEncryptionAtRestPrivateEndpointDeletion", func(c *call) (any, error) {
		ep, err := c.earEndpoint()
		if err != nil {
			return nil, err
		}
		if ep.DeletingSince == nil {
			now := c.now
			ep.DeletingSince = &now
			c.markChanged()
		}
		return nil, nil
	})
	handle("listServerlessPrivateEndpoints", func(c *call) (any, error) {
		cl, err := c.kindCluster("instanceName", KindServerless)
		if err != nil {
			return nil, err
		}
		var out list
		for _, ep := range c.w.ServerlessPrivateEndpoints {
			if ep.GroupID == cl.GroupID && ep.InstanceName == cl.Name {
				out = append(out, ep.view(c.now))
			}
		}
		return out, nil
	})
	handle("createServerlessPrivateEndpoint", func(c *call) (any, error) {
		cl, err := c.kindCluster("instanceName", KindServerless)
		if err != nil {
			return nil, err
		}
		var b struct {
			Comment string `json:"comment"`
		}
		if len(c.body) > 0 {
			if e := c.decode(&b); e != nil {
				return nil, e
			}
		}
		if len(b.Comment) > 80 {
			return nil, errField("comment", "must be at most 80 characters")
		}
		ep := &ServerlessPrivateEndpoint{ID: c.w.newID(), GroupID: cl.GroupID, InstanceName: cl.Name, Comment: b.Comment, CreatedAt: c.now}
		c.w.ServerlessPrivateEndpoints = append(c.w.ServerlessPrivateEndpoints, ep)
		c.markChanged()
		return ep.view(c.now), nil
	})
}

func (c *call) earEndpoint() (*EARPrivateEndpoint, error) {
	id, cp := c.param("endpointId"), c.param("cloudProvider")
	ep := find(c.w.EARPrivateEndpoints, func(x *EARPrivateEndpoint) bool {
		return x.ID == id && x.GroupID == c.project.ID && x.CloudProvider == cp
	})
	if ep == nil || (ep.DeletingSince != nil && !c.now.Before(ep.DeletingSince.Add(earDeleteFor))) {
		return nil, errNotFound("ENCRYPTION_AT_REST_PRIVATE_ENDPOINT_NOT_FOUND", "No %s private endpoint with ID %s exists in group %s.", cp, id, c.project.ID)
	}
	return ep, nil
}

func (ep *EARPrivateEndpoint) view(now time.Time) any {
	status := "ACTIVE"
	if ep.DeletingSince != nil {
		status = "DELETING"
	}
	return map[string]any{
		"id": ep.ID, "cloudProvider": ep.CloudProvider, "regionName": ep.RegionName, "status": status,
		"privateEndpointConnectionName": "pe-" + ep.ID[16:],
	}
}

func (ep *ServerlessPrivateEndpoint) view(now time.Time) any {
	status := "RESERVATION_REQUESTED"
	if now.Sub(ep.CreatedAt) >= 10*time.Second {
		status = "RESERVED"
	}
	return map[string]any{
		"_id": ep.ID, "comment": ep.Comment, "status": status, "providerName": "AWS",
		"endpointServiceName": "com.amazonaws.vpce.us-east-1.vpce-svc-" + ep.ID[7:],
	}
}
