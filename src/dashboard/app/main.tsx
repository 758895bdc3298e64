import { QueryClient, QueryClientProvider, useQuery } from "@tanstack/react-query";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { AcceptInvitation, ForgotPassword, ResetPassword } from "./account-links.tsx";
import { ApiFailure, api, unwrap } from "./api.ts";
import { SignIn, SignUp } from "./auth.tsx";
import { Layout } from "./layout.tsx";
import { useLocation } from "./router.tsx";
import { Loading } from "./ui.tsx";

const queryClient = new QueryClient({
  defaultOptions: {
    // A 4xx will not change by asking again; a dropped connection might.
    queries: {
      retry: (count, error) => !(error instanceof ApiFailure) && count < 2,
      refetchOnWindowFocus: false,
    },
  },
});

/** The signed-in user's session, or null when there is none (the API answers 401). */
export const useSession = () =>
  useQuery({
    queryKey: ["session"],
    queryFn: async () => {
      try {
        return await unwrap(api.GET("/api/auth/session"));
      } catch (error) {
        if (error instanceof ApiFailure && error.status === 401) return null;
        throw error;
      }
    },
  });

function App() {
  const session = useSession();
  const { path } = useLocation();
  if (session.isPending) return <Loading what="your session" />;
  // The pages of emailed links open signed in or not.
  if (path === "/forgot-password") return <ForgotPassword />;
  if (path === "/reset-password") return <ResetPassword />;
  if (path === "/invitations/accept") return <AcceptInvitation session={session.data ?? null} />;
  if (!session.data) return path === "/sign-up" ? <SignUp /> : <SignIn />;
  return <Layout session={session.data} />;
}

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <App />
    </QueryClientProvider>
  </StrictMode>,
);
