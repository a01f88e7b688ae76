/** One stored API (contract §7): what the store keeps of a definition, and what reads answer. */
export interface ApiRecord {
  id: string;
  api_id: string;
  org_id: string;
  name: string;
  kind: 'classic' | 'oas';
  classic: Record<string, unknown>;
  oas?: Record<string, unknown>;
  base_api_id?: string;
  categories: string[];
  created_at: string;
  updated_at: string;
  version: number;
}
