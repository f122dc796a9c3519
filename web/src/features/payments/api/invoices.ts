import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { Invoice, InvoiceDetail } from '@ra/shared';
import { apiRequest } from '../../../lib/api-client';

export function useInvoices() {
  return useQuery({
    queryKey: ['invoices'],
    queryFn: async () => (await apiRequest<{ data: Invoice[] }>('/api/payment/invoices?limit=200')).data,
    // The list refreshes when the tab becomes visible again (after paying in another tab).
    refetchOnWindowFocus: 'always',
  });
}

export function useInvoiceDetail(uid: string | undefined) {
  return useQuery({
    queryKey: ['invoice', uid],
    queryFn: () => apiRequest<InvoiceDetail>(`/api/payment/invoices/${uid}`),
    enabled: Boolean(uid),
  });
}

export function createInvoice(radiologistUid: string, image: string) {
  return apiRequest<{ success: true; msg: string; invoice: Invoice }>(
    `/api/payment/${radiologistUid}/invoice`,
    {
      method: 'POST',
      body: { image },
    },
  );
}

export function useInvoiceActions() {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['invoices'] });
  return {
    async cancel(uid: string) {
      await apiRequest(`/api/payment/invoices/${uid}/cancel`, { method: 'POST' });
      await refresh();
    },
    async payInSandbox(uid: string) {
      const result = await apiRequest<{ invoice: Invoice }>(`/api/payment/sandbox/${uid}/pay`, {
        method: 'POST',
      });
      await queryClient.invalidateQueries({ queryKey: ['invoice', uid] });
      await refresh();
      return result.invoice;
    },
  };
}
