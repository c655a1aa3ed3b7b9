-- An optional allow-list per API key: the addresses (IPv4/IPv6, single or CIDR) a key may be used
-- from. NULL: from anywhere. Stored as PostgreSQL's cidr, so a malformed entry cannot be stored.
ALTER TABLE api_keys ADD COLUMN allowed_addresses cidr[];
