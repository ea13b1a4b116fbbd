package io.tollgate.servlet;

import jakarta.servlet.http.HttpServletRequest;
import java.security.Principal;
import java.util.Optional;

/** {@link TenantResolver#principal()}: one instance, so the filter can tell it from a custom resolver. */
final class PrincipalTenant implements TenantResolver {

  static final PrincipalTenant INSTANCE = new PrincipalTenant();

  private PrincipalTenant() {}

  @Override
  public Optional<String> tenantOf(HttpServletRequest request) {
    Principal user = request.getUserPrincipal();
    return user == null || user.getName() == null || user.getName().isBlank()
        ? Optional.empty() : Optional.of(user.getName());
  }
}
